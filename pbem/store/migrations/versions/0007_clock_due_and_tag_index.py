"""flat costs: when each game's clock next needs a look, and an index on lower(tag)

``clock_due_at`` lets a clock pass touch only the games with something due (existing games
are due at once, so the first pass computes theirs). Tags are looked up case-blind, and
``lower(tag) = ?`` cannot use the plain unique index on ``tag``.

Revision ID: 0007
Revises: 0006
"""
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

_game = sa.table('game', sa.column('clock_due_at', sa.DateTime(timezone=True)))


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('clock_due_at', sa.DateTime(timezone=True), nullable=True))
    op.execute(_game.update().values(clock_due_at=datetime(1970, 1, 1, tzinfo=UTC)))
    op.create_index('ix_game_clock_due_at', 'game', ['clock_due_at'])
    op.create_index('ix_game_tag_lower', 'game', [sa.text('lower(tag)')])


def downgrade() -> None:
    op.drop_index('ix_game_tag_lower', table_name='game')
    op.drop_index('ix_game_clock_due_at', table_name='game')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('clock_due_at')
