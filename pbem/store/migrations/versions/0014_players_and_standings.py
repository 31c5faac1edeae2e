"""players across games (profile, ban) and standings (results, ratings)

Revision ID: 0014
Revises: 0012
"""
import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'player',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('address', sa.String(), nullable=False, unique=True),
        sa.Column('name', sa.String(), nullable=False, server_default=''),
        sa.Column('language', sa.String(), nullable=True),
        sa.Column('timezone', sa.String(), nullable=True),
        sa.Column('mail_mode', sa.String(), nullable=True),
        sa.Column('banned_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('ban_reason', sa.Text(), nullable=False, server_default=''),
        sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'gameresult',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('game_id', sa.Integer(), sa.ForeignKey('game.id'), nullable=False,
                  unique=True),
        sa.Column('game_type', sa.String(), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ranking_json', sa.Text(), nullable=False),
    )
    op.create_index('ix_gameresult_game_type', 'gameresult', ['game_type'])
    op.create_table(
        'rating',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('player.id'), nullable=False),
        sa.Column('game_type', sa.String(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('last_finished_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('last_game_id', sa.Integer(), nullable=False),
        sa.UniqueConstraint('player_id', 'game_type'),
    )
    op.create_index('ix_rating_player_id', 'rating', ['player_id'])
    op.create_index('ix_rating_game_type', 'rating', ['game_type'])
    # Everyone who holds a seat has a profile (empty: their seats keep what they have). Their
    # ratings come from `pbem player ratings rebuild`, which reads the games: a migration
    # must not run game code.
    op.execute("INSERT INTO player (address, name, ban_reason, created) "
               "SELECT DISTINCT address, '', '', CURRENT_TIMESTAMP FROM seat")


def downgrade() -> None:
    op.drop_table('rating')
    op.drop_table('gameresult')
    op.drop_table('player')
