"""mail bytes in tables of their own (inboundbytes, outboundbytes); the outbox keeps subjects

SQLite writes a whole row again whenever any column of it changes: every claim and every mark
of an outbound mail copied its ~70 kB of bytes into the WAL (measured: a claim of 20 mails
and their 20 marks wrote 4.45 MB with the bytes in the row, 87 kB with them apart), and the
inbound row was written again as it was processed. The bytes move to tables keyed by their
message's id, written once; ``outboundmessage.subject`` lets the outbox be listed without
them. PostgreSQL keeps outbound bytes uncompressed (as 0009 made them).

Revision ID: 0010
Revises: 0009
"""
from email import policy
from email.parser import BytesHeaderParser

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

_OUTBOUND_BYTES = ('raw', 'raw_once_sent')


def _external(table: str, columns: tuple[str, ...]) -> None:
    if op.get_bind().dialect.name == 'postgresql':
        for column in columns:
            op.execute(f'ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE EXTERNAL')


def _subject(raw: bytes) -> str:
    """What the outbox list showed: the Subject header as read from the bytes."""
    headers = BytesHeaderParser(policy=policy.default).parsebytes(raw)
    return ' '.join(str(headers.get('Subject', '')).split())


def upgrade() -> None:
    op.create_table(
        'inboundbytes',
        sa.Column('id', sa.Integer(), sa.ForeignKey('inboundmessage.id'), primary_key=True,
                  autoincrement=False),
        sa.Column('raw', sa.LargeBinary(), nullable=False))
    op.create_table(
        'outboundbytes',
        sa.Column('id', sa.Integer(), sa.ForeignKey('outboundmessage.id'), primary_key=True,
                  autoincrement=False),
        sa.Column('raw', sa.LargeBinary(), nullable=False),
        sa.Column('raw_once_sent', sa.LargeBinary(), nullable=True))
    _external('outboundbytes', _OUTBOUND_BYTES)
    op.execute('INSERT INTO inboundbytes (id, raw) SELECT id, raw FROM inboundmessage')
    op.execute('INSERT INTO outboundbytes (id, raw, raw_once_sent) '
               'SELECT id, raw, raw_once_sent FROM outboundmessage')
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('subject', sa.Text(), nullable=False, server_default=''))
    _fill_subjects(op.get_bind())
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        for column in _OUTBOUND_BYTES:
            batch_op.drop_column(column)
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.drop_column('raw')


def _fill_subjects(conn: sa.Connection) -> None:
    outbound = sa.table('outboundmessage', sa.column('id', sa.Integer),
                        sa.column('subject', sa.Text))
    stored = sa.table('outboundbytes', sa.column('id', sa.Integer),
                      sa.column('raw', sa.LargeBinary))
    for (row_id,) in conn.execute(sa.select(stored.c.id)).all():  # one mail in memory at once
        raw = conn.execute(sa.select(stored.c.raw).where(stored.c.id == row_id)).scalar_one()
        subject = _subject(raw)
        if subject:
            conn.execute(outbound.update().where(outbound.c.id == row_id).values(
                subject=subject))


def downgrade() -> None:
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('raw', sa.LargeBinary(), nullable=True))
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('raw', sa.LargeBinary(), nullable=True))
        batch_op.add_column(sa.Column('raw_once_sent', sa.LargeBinary(), nullable=True))
    _external('outboundmessage', _OUTBOUND_BYTES)
    conn = op.get_bind()
    conn.execute(sa.text(
        'UPDATE inboundmessage SET raw = (SELECT b.raw FROM inboundbytes b '
        'WHERE b.id = inboundmessage.id)'))
    conn.execute(sa.text(
        'UPDATE outboundmessage SET '
        'raw = (SELECT b.raw FROM outboundbytes b WHERE b.id = outboundmessage.id), '
        'raw_once_sent = (SELECT b.raw_once_sent FROM outboundbytes b '
        'WHERE b.id = outboundmessage.id)'))
    for table in ('inboundmessage', 'outboundmessage'):  # a row without bytes: none to move
        conn.execute(sa.text(f'UPDATE {table} SET raw = :empty WHERE raw IS NULL'),
                     {'empty': b''})
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.alter_column('raw', existing_type=sa.LargeBinary(), nullable=False)
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.alter_column('raw', existing_type=sa.LargeBinary(), nullable=False)
        batch_op.drop_column('subject')
    op.drop_table('outboundbytes')
    op.drop_table('inboundbytes')

