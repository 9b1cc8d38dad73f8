"""The PostgreSQL backend: `PostgresStore` (store.py) on an asyncpg pool (conn.py), with LISTEN
for moves other processes commit (listen.py)."""

from .store import PostgresStore

__all__ = ["PostgresStore"]
