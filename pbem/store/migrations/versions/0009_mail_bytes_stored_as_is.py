"""mail bytes stored out of line without compression (PostgreSQL)

PostgreSQL compressed every outbound mail with pglz before storing it: ~9 ms for a 110 kB
status mail, whose bulk (a PNG in base64) pglz cannot shrink, so the row took as much room
as uncompressed (measured: 9.0 ms vs 2.6 ms per insert, 110 kB per row either way).
``STORAGE EXTERNAL`` keeps the bytes out of line and skips the compression. SQLite never
compresses: nothing to do there.

Revision ID: 0009
Revises: 0008
"""
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

_COLUMNS = (('outboundmessage', 'raw'), ('outboundmessage', 'raw_once_sent'))


def _storage(mode: str) -> None:
    if op.get_bind().dialect.name != 'postgresql':
        return
    for table, column in _COLUMNS:  # rows already stored keep their form until rewritten
        op.execute(f'ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE {mode}')


def upgrade() -> None:
    _storage('EXTERNAL')


def downgrade() -> None:
    _storage('EXTENDED')
