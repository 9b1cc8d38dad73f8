// Boardroom's additions to SimCord's preview page (served by local/page, loaded before app.js).
//
// 1. The page's "now" follows the virtual clock (local/clock.py), not the instant of the last
//    publication: it is read from the server every few seconds, and every countdown
//    (<t:...:R>) is redrawn each second without a refresh.
// 2. Links to discord.com/channels/... stay on the page: a message link shows that message
//    (SimCord's own "Jump to message ID"); a channel link shows the latest messages.

const key = window.location.hash.slice(1);
const SYNC_MS = 5000;
/** Server's virtual now minus this browser's clock, in ms; null until the first answer. */
let offset = null;

/** The virtual clock's now in ms, or null before the first reading. */
globalThis.boardroomNow = () => (offset === null ? null : Date.now() + offset);

async function sync() {
  const sent = Date.now();
  try {
    const response = await fetch("/boardroom-now.json", { headers: { "X-Simcord-Capability": key }, cache: "no-store" });
    if (!response.ok) return;
    const { now } = await response.json();
    const received = Date.now();
    offset = new Date(now).getTime() - (sent + received) / 2;
    tick();
  } catch (_) {
    // The server is stopping or busy: the countdowns keep ticking from the last reading.
  }
}

/** The same wording as SimCord's text.js for <t:...:R>, from the virtual now. */
function relative(unix, locale) {
  const seconds = unix - globalThis.boardroomNow() / 1000;
  const absolute = Math.abs(seconds);
  const [unit, amount] = absolute < 60 ? ["second", seconds]
    : absolute < 3600 ? ["minute", seconds / 60]
      : absolute < 86400 ? ["hour", seconds / 3600]
        : absolute < 604800 ? ["day", seconds / 86400]
          : ["week", seconds / 604800];
  return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(Math.round(amount), unit);
}

function tick() {
  if (offset === null) return;
  for (const time of document.querySelectorAll("time.discord-timestamp[data-locale]")) {
    const unix = new Date(time.dateTime).getTime() / 1000;
    if (!Number.isFinite(unix)) continue;
    const text = relative(unix, time.dataset.locale);
    if (time.textContent !== text) time.textContent = text;
  }
}

const DISCORD_LINK = /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/channels\/(?:\d+|@me)\/(\d+)(?:\/(\d+))?\/?$/;

/** @param {MouseEvent} event */
function stayOnPage(event) {
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  const found = link ? DISCORD_LINK.exec(link.href) : null;
  if (!found) return;
  event.preventDefault();
  event.stopPropagation();
  if (event.type !== "click") return;
  const messageId = found[2];
  if (messageId) {
    const box = document.getElementById("message-exact-id");
    const form = document.getElementById("message-exact-form");
    box.value = messageId;
    form.requestSubmit();
  } else {
    document.getElementById("new-messages")?.click();
  }
}

document.addEventListener("click", stayOnPage, true);
document.addEventListener("auxclick", stayOnPage, true);
setInterval(tick, 1000);
setInterval(sync, SYNC_MS);
sync();
