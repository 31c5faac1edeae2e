"""watchers: the addresses that watch a game (the spectators' view by mail)

Revision ID: 0020_watchers
Revises: 0019_retention
"""
import sqlalchemy as sa
from alembic import op

revision = '0020_watchers'
down_revision = '0019_retention'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'watch',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('address', sa.String(), nullable=False),
        sa.Column('mode', sa.String(), nullable=False),
        sa.Column('language', sa.String(), nullable=False),
        sa.Column('created', sa.DateTime(timezone=True), nullable=False),
        sa.Column('told_index', sa.Integer(), nullable=False),
        sa.Column('told_turn', sa.Integer(), nullable=False),
        sa.Column('mailed_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'address'),
    )
    with op.batch_alter_table('watch', schema=None) as batch_op:
        batch_op.create_index('ix_watch_game_id', ['game_id'], unique=False)
        batch_op.create_index('ix_watch_address', ['address'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('watch', schema=None) as batch_op:
        batch_op.drop_index('ix_watch_address')
        batch_op.drop_index('ix_watch_game_id')
    op.drop_table('watch')
