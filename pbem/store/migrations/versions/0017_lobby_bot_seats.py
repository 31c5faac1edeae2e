"""a lobby table's bot seats: how many of its last seats the host's bots play, and how well

Revision ID: 0017
Revises: 0016
"""
import sqlalchemy as sa
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

# Plain ADD/DROP COLUMN (as 0013): every table opened before bot seats has none.


def upgrade() -> None:
    op.add_column('lobbytable', sa.Column('bots', sa.Integer(), nullable=False,
                                          server_default='0'))
    op.add_column('lobbytable', sa.Column('bot_level', sa.String(), nullable=False,
                                          server_default='normal'))


def downgrade() -> None:
    op.drop_column('lobbytable', 'bot_level')
    op.drop_column('lobbytable', 'bots')
