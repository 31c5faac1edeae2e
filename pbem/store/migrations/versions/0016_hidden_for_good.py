"""hidden for good: a game whose archive keeps every holding and draw hidden after its end

Revision ID: 0016
Revises: 0015
"""
import sqlalchemy as sa
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


# Plain ADD/DROP COLUMN (as 0008): a batch copy of "game" would lose 0007's expression index
# on lower(tag).


def upgrade() -> None:
    op.add_column('game', sa.Column('hidden_for_good', sa.Boolean(), nullable=False,
                                    server_default=sa.false()))


def downgrade() -> None:
    op.drop_column('game', 'hidden_for_good')
