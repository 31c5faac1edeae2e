"""mail parts: the pictures of sent mails stored once, and which mail uses which

Revision ID: 0022_mail_parts
Revises: 0021_calendar
"""
import re
import zlib

import sqlalchemy as sa
from alembic import op

revision = '0022_mail_parts'
down_revision = '0021_calendar'
branch_labels = None
depends_on = None

# Mails stored before keep their bytes as they are (pbem.store.packing reads both); new
# ones are compressed, their pictures in mailpart.


def upgrade() -> None:
    op.create_table(
        'mailpart',
        sa.Column('digest', sa.String(), nullable=False),
        sa.Column('body', sa.LargeBinary(), nullable=False),
        sa.Column('last_used', sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint('digest'),
    )
    op.create_index('ix_mailpart_last_used', 'mailpart', ['last_used'])
    if op.get_bind().dialect.name == 'postgresql':  # deflated already: pglz would only cost
        op.execute('ALTER TABLE mailpart ALTER COLUMN body SET STORAGE EXTERNAL')
    op.create_table(
        'mailpartuse',
        sa.Column('outbound_id', sa.Integer(), nullable=False),
        sa.Column('digest', sa.String(), nullable=False),
        sa.ForeignKeyConstraint(['outbound_id'], ['outboundmessage.id']),
        sa.ForeignKeyConstraint(['digest'], ['mailpart.digest']),
        sa.PrimaryKeyConstraint('outbound_id', 'digest'),
    )
    op.create_index('ix_mailpartuse_digest', 'mailpartuse', ['digest'])


# pbem.store.packing's format as of this revision, frozen here: a downgrade puts every mail
# back as composed, uncompressed, as the revisions before read them.
_DEFLATED = b"\x00deflate\x00"
_MARK = re.compile(rb"\x00part:([0-9a-f]{64})\x00")


def _inflate(value: bytes | None) -> bytes | None:
    if value is not None and bytes(value).startswith(_DEFLATED):
        return zlib.decompress(bytes(value)[len(_DEFLATED):])
    return None if value is None else bytes(value)


def downgrade() -> None:
    conn = op.get_bind()
    parts: dict[str, bytes] = {}

    def body(found: re.Match[bytes]) -> bytes:
        digest = found.group(1).decode()
        if digest not in parts:
            stored = conn.execute(sa.text("SELECT body FROM mailpart WHERE digest = :d"),
                                  {"d": digest}).scalar_one()
            parts[digest] = _inflate(stored) or b""
        return parts[digest]

    def whole(value: bytes | None) -> bytes | None:
        plain = _inflate(value)
        return None if plain is None else _MARK.sub(body, plain)

    ids = [row[0] for row in conn.execute(sa.text("SELECT id FROM outboundbytes ORDER BY id"))]
    for mail_id in ids:
        raw, once = conn.execute(sa.text(
            "SELECT raw, raw_once_sent FROM outboundbytes WHERE id = :i"), {"i": mail_id}).one()
        conn.execute(sa.text("UPDATE outboundbytes SET raw = :r, raw_once_sent = :o "
                             "WHERE id = :i"), {"r": whole(raw), "o": whole(once), "i": mail_id})
    op.drop_index('ix_mailpartuse_digest', 'mailpartuse')
    op.drop_table('mailpartuse')
    op.drop_index('ix_mailpart_last_used', 'mailpart')
    op.drop_table('mailpart')
