"""each seat's language and time zone, and the game's default language (issue 16)

Revision ID: 0008
Revises: 0007
"""
import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None

# Plain ADD/DROP COLUMN, not batch mode: SQLite adds a column with a default in place, and a
# batch copy of "game" would lose 0007's expression index on lower(tag).


def upgrade() -> None:
    op.add_column('game', sa.Column('language', sa.String(), nullable=False,
                                    server_default='en'))
    op.add_column('seat', sa.Column('language', sa.String(), nullable=False,
                                    server_default='en'))
    op.add_column('seat', sa.Column('timezone', sa.String(), nullable=False,
                                    server_default='UTC'))


def downgrade() -> None:
    op.drop_column('seat', 'timezone')
    op.drop_column('seat', 'language')
    op.drop_column('game', 'language')
