"""who plays each seat: its player, a bot seat, or a bot standing in for a dropped player

Revision ID: 0013
Revises: 0012
"""
import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

# Plain ADD/DROP COLUMN (as 0008): every seat made before bots existed is its player's.


def upgrade() -> None:
    op.add_column('seat', sa.Column('controller', sa.String(), nullable=False,
                                    server_default='human'))


def downgrade() -> None:
    op.drop_column('seat', 'controller')
