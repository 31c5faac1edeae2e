"""a lobby seat's code is derived, not random: when it was last mailed, so a repeated join
mails it again at most once a day

Revision ID: 0018_lobby_code_sent
Revises: 0017
"""
import sqlalchemy as sa
from alembic import op

revision = '0018_lobby_code_sent'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('lobbyseat', sa.Column('code_sent_at', sa.DateTime(), nullable=True))


def downgrade() -> None:
    op.drop_column('lobbyseat', 'code_sent_at')
