'''The exact changes made to SimCord's page (simcord 3.2.1, pinned) as it is served: file ->
[(SimCord's text, ours)]. Each old text must occur exactly once in the pinned file.'''

from __future__ import annotations

PATCHES: dict[str, list[tuple[str, str]]] = {
    # Our script first: module scripts run in document order, so the page's clock and link
    # handling are in place before SimCord's app draws anything.
    "index.html": [(
        '<script type="module" src="/app.js"></script>',
        '<script type="module" src="/boardroom-page.js"></script>\n    <script type="module" src="/app.js"></script>',
    )],
    "app.js": [
        # Opening a select, moving in its list or picking re-rendered EVERY message ("force"):
        # every picture was rebuilt and reloaded, the channel's height changed under the open
        # list, the timeline jumped 180-550 px and the list closed (issue 28, point 1). A local
        # re-render now redraws only the messages whose content or select state changed.
        ("  if (renderDom && state.snapshot) renderSnapshot(state.snapshot, generation, true);",
         '  if (renderDom && state.snapshot) renderSnapshot(state.snapshot, generation, "local");'),
        ("    pendingMedia.push(...renderChannelTimeline(snapshot, previousTargetId, force));",
         "    pendingMedia.push(...renderChannelTimeline(snapshot, previousTargetId, force === true));"),
        ("  candidateFingerprint: (scope) => selections.fingerprint(scope),",
         "  candidateFingerprint: (scope) => selections.fingerprint(scope) + openSelectState(scope),"),
        ("function loadAsset(id, options) { return assets.load(id, options); }",
         "function loadAsset(id, options) { return assets.load(id, options); }\n"
         "/** Boardroom: a message's open list and select drafts, part of its fingerprint so that a\n"
         " * local re-render redraws the message whose select changed, and only that one.\n"
         " * @param {string} scope */\n"
         "function openSelectState(scope) {\n"
         "  const prefix = `${scope}:`;\n"
         "  const open = state.dropdown?.key?.startsWith(prefix) ? state.dropdown : null;\n"
         "  const drafts = Object.entries(selections.report()).filter(([key]) => key.startsWith(prefix));\n"
         "  return JSON.stringify([open, drafts]);\n"
         "}"),
    ],
    "listbox.js": [
        # Highlighting an option called scrollIntoView, which scrolls EVERY scrolling ancestor:
        # when a select opened (and at each arrow key) the channel scrolled ~100 px under the
        # list, SimCord's anchor was re-taken at the moved place and the list closed or was
        # left pointing one option off (point 1). Only the list itself is scrolled now.
        ("    if (scroll && items[index]) items[index].scrollIntoView?.({ block: \"nearest\" });",
         "    if (scroll && items[index]) scrollWithinList(items[index]);"),
        ("  /** @param {number} nextIndex @param {{scroll?: boolean}} [options] */\n  function setActive(",
         "  /** Boardroom: scroll `item` into view in its nearest scrolling ancestor, and in nothing else.\n"
         "   * @param {HTMLElement} item */\n"
         "  function scrollWithinList(item) {\n"
         "    let box = item.parentElement;\n"
         "    while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;\n"
         "    if (!box) return;\n"
         "    const top = item.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;\n"
         "    if (top < box.scrollTop) box.scrollTop = top;\n"
         "    else if (top + item.offsetHeight > box.scrollTop + box.clientHeight) {\n"
         "      box.scrollTop = top + item.offsetHeight - box.clientHeight;\n"
         "    }\n"
         "  }\n\n"
         "  /** @param {number} nextIndex @param {{scroll?: boolean}} [options] */\n  function setActive("),
    ],
    "media.js": [
        # A redrawn picture whose size is known kept no room until its bytes were decoded (its
        # button shrank to nothing): the message was briefly ~180 px shorter, the channel's
        # scroll position was cut short and never came back (point 1's jump). It keeps its size.
        ("  if (width > 0 && height > 0) {\n    image.width = width;\n    image.height = height;\n  }",
         "  if (width > 0 && height > 0) {\n    image.width = width;\n    image.height = height;\n"
         "    trigger.style.width = `${width}px`;\n  }"),
    ],
    "select-drafts.js": [
        # The trigger just clicked is in view: focusing it must not scroll the channel (Chromium
        # moved it ~100 px at 1400x1000, part of point 1's jump).
        ("    trigger?.focus();\n  }", "    trigger?.focus({ preventScroll: true });\n  }"),
        # Each arrow key redrew the whole message (its trigger too, focus put back after): a key
        # pressed meanwhile was lost and the pick landed one option off. The list has already
        # moved its highlight itself; only the state is kept.
        ("    state.dropdown.highlight = highlight;\n    localRender(true);",
         "    state.dropdown.highlight = highlight;\n    publish();"),
    ],
    "text.js": [
        # "in 5 minutes" was measured from the instant of the last publication, which the page
        # only got on a refresh (issue 28, point 4): measured from the virtual clock's now, which
        # boardroom-page.js keeps (and ticks the countdowns with), when it has it.
        ("        const basis = new Date(options.presentationTime || 0);",
         "        const basis = new Date(globalThis.boardroomNow?.() || options.presentationTime || 0);"),
        ("  if (valid) time.dateTime = date.toISOString();",
         "  if (valid) time.dateTime = date.toISOString();\n"
         "  if (valid && style === \"R\") time.dataset.locale = options.locale || \"en-US\";"),
    ],
    "assets.js": [
        # A picture the server could not decode in time (a busy bot during fast play) stayed
        # "Gallery item unavailable" (issue 28, point 7): it is asked for again a few times.
        ("export function createAssets({ headers }) {",
         "/** Boardroom: fetch, and again after a pause while the answer is not ok and the asset is\n"
         " * still wanted (SimCord's server decodes pictures one at a time, each within 30 s).\n"
         " * @param {() => Promise<Response>} get @param {() => boolean} wanted */\n"
         "async function fetchPatiently(get, wanted) {\n"
         "  for (const pause of [1000, 2000, 4000, 8000]) {\n"
         "    try {\n"
         "      const response = await get();\n"
         "      if (response.ok || !wanted()) return response;\n"
         "    } catch (error) {\n"
         "      if (!wanted()) throw error;\n"
         "    }\n"
         "    await new Promise((resolve) => setTimeout(resolve, pause));\n"
         "  }\n"
         "  return get();\n"
         "}\n"
         "export function createAssets({ headers }) {"),
        ("    const pending = fetch(`/api/assets/${encodeURIComponent(id)}${suffix}`, "
         "{ headers: headers(), cache: \"no-store\" }).then(async (response) => {",
         "    const pending = fetchPatiently(() => fetch(`/api/assets/${encodeURIComponent(id)}${suffix}`, "
         "{ headers: headers(), cache: \"no-store\" }),\n"
         "      () => admittedEpoch === epoch && Boolean(manifests[id]) && manifests[id].available !== false)"
         ".then(async (response) => {"),
    ],
    "commands.js": [
        # Enter on a chosen option never sent the command (issue 28, point 7): picking a choice
        # with Enter redraws the command row and puts the focus back in that option's box,
        # whose focus handler opened the choice list again, so the next Enter picked the same
        # choice again, for ever. The focus put back after a pick leaves the list closed, as on
        # Discord: the next Enter sends (a mouse pick moved the focus away, so it never showed).
        # The next required option, focused by the same pick, still opens its list.
        ("  /** @param {CommandOption | undefined} option @param {Identity} value */\n"
         "  function chooseValue(option, value) {\n    if (!option) return;",
         "  /** Boardroom: the option whose choice is being picked (its box gets the focus back). */\n"
         "  let choosing = null;\n"
         "  /** @param {CommandOption | undefined} option @param {Identity} value */\n"
         "  function chooseValue(option, value) {\n    if (!option) return;\n"
         "    choosing = option.name;\n"
         "    try { pickValue(option, value); } finally { choosing = null; }\n"
         "  }\n"
         "  /** @param {CommandOption} option @param {Identity} value */\n"
         "  function pickValue(option, value) {"),
        ("          context();\n          if (option.type === \"boolean\" || option.choices?.length) {",
         "          context();\n          if (choosing === option.name) clearPopup();\n"
         "          else if (option.type === \"boolean\" || option.choices?.length) {"),
    ],
}
