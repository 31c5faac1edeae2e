"""no secret at rest: digest and verdict of inbound mail, outbound mail's redacted copy

The mail already stored is blanked too, so an upgraded database keeps no secret either:
inbound mail gets the digest of its bytes as stored and, if quarantined, the seat whose secret
it carries (what a reprocess trusts); sent mail is blanked, queued mail gets its blanked copy
for when it is sent. The mail is read and blanked by frozen copies of the pipeline's helpers
(pbem/store/migrations/frozen_0005): a later pipeline must not change what this migration does.

Revision ID: 0005
Revises: 0003
"""
import hashlib

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

_inbound = sa.table('inboundmessage', sa.column('id', sa.Integer),
                    sa.column('raw', sa.LargeBinary), sa.column('status', sa.String),
                    sa.column('reason', sa.Text), sa.column('raw_sha256', sa.String),
                    sa.column('secret_seat', sa.Integer))
_outbound = sa.table('outboundmessage', sa.column('id', sa.Integer),
                     sa.column('raw', sa.LargeBinary), sa.column('status', sa.String),
                     sa.column('raw_once_sent', sa.LargeBinary))
_game = sa.table('game', sa.column('id', sa.Integer), sa.column('tag', sa.String))
_seat = sa.table('seat', sa.column('game_id', sa.Integer), sa.column('index', sa.Integer),
                 sa.column('address', sa.String), sa.column('secret_salt', sa.String),
                 sa.column('secret_hash', sa.String))


def upgrade() -> None:
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('raw_sha256', sa.String(), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('secret_seat', sa.Integer(), nullable=True))
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('raw_once_sent', sa.LargeBinary(), nullable=True))
    _blank_stored_mail(op.get_bind())


def _verdict(conn: sa.Connection, raw: bytes) -> tuple[int | None, str | None]:
    """The seat whose secret a kept mail carries (as the pipeline's receipt check)."""
    from pbem.store.migrations.frozen_0005.letter import TAG_RE, read_letter
    from pbem.store.migrations.frozen_0005.reading import read_message
    from pbem.store.migrations.frozen_0005.seat_secrets import check_secret

    try:
        mail = read_message(raw)
        letter = read_letter(mail.body_text or "")
    except Exception:
        return None, None
    tags = [*TAG_RE.findall(mail.subject or ""),
            *([letter.game_tag.strip("[]")] if letter.game_tag else [])]
    for tag in tags:
        game_id = conn.execute(sa.select(_game.c.id).where(
            sa.func.lower(_game.c.tag) == tag.lower())).scalar()
        if game_id is None:
            continue
        for index, salt, hashed in conn.execute(sa.select(
                _seat.c.index, _seat.c.secret_salt, _seat.c.secret_hash).where(
                _seat.c.game_id == game_id, _seat.c.address == mail.from_addr)):
            if letter.secret is not None and check_secret(letter.secret, salt, hashed):
                return index, letter.secret
        break
    return None, letter.secret


def _blank_stored_mail(conn: sa.Connection) -> None:
    from pbem.store.migrations.frozen_0005.redact import blank, redact

    for (row_id,) in conn.execute(sa.select(_inbound.c.id)).all():
        raw, status, reason = conn.execute(sa.select(
            _inbound.c.raw, _inbound.c.status, _inbound.c.reason).where(
            _inbound.c.id == row_id)).one()
        seat, secret = _verdict(conn, raw) if status == 'quarantined' else (None, None)
        tokens = [secret] if secret else []
        conn.execute(_inbound.update().where(_inbound.c.id == row_id).values(
            raw=redact(raw, tokens), raw_sha256=hashlib.sha256(raw).hexdigest(),
            secret_seat=seat, reason=blank(reason or '', tokens)))
    for (row_id,) in conn.execute(sa.select(_outbound.c.id)).all():
        raw, status = conn.execute(sa.select(_outbound.c.raw, _outbound.c.status).where(
            _outbound.c.id == row_id)).one()
        blanked = redact(raw)
        if blanked == raw:
            continue
        if status == 'sent':
            conn.execute(_outbound.update().where(_outbound.c.id == row_id).values(raw=blanked))
        else:  # still to be sent: the secret must reach the player first
            conn.execute(_outbound.update().where(_outbound.c.id == row_id).values(
                raw_once_sent=blanked))


def downgrade() -> None:
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.drop_column('raw_once_sent')
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.drop_column('secret_seat')
        batch_op.drop_column('raw_sha256')
