"""A house without Discord (processes of their own, store-level tests): the runtime built as
app.py builds it, with a notifier that records or says nothing instead of the table keeper."""

from __future__ import annotations

from play.house import House
from play.ports import Notifier, Silent
from play.runtime import Parts, Runtime
from store import Shards, Store


def headless_house(store: Store, notifier: Notifier | None = None, shards: Shards | None = None) -> House:
    return Runtime.build(Parts.build(store, shards=shards), notifier or Silent()).house
