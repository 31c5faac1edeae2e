"""retention: when a stored mail was cut to its headers, and the size (and digest) it had;
when a player asked by mail to be forgotten

Revision ID: 0019_retention
Revises: 0018_lobby_code_sent
"""
import sqlalchemy as sa
from alembic import op

revision = '0019_retention'
down_revision = '0018_lobby_code_sent'
branch_labels = None
depends_on = None

# Plain ADD/DROP COLUMN (as 0017): nullable columns, nothing to fill; every mail stored
# before them is whole.


def upgrade() -> None:
    for table in ('inboundmessage', 'outboundmessage'):
        op.add_column(table, sa.Column('pruned_at', sa.DateTime(timezone=True), nullable=True))
        op.add_column(table, sa.Column('raw_size', sa.Integer(), nullable=True))
    op.add_column('outboundmessage', sa.Column('raw_sha256', sa.String(), nullable=True))
    op.add_column('player', sa.Column('forget_asked_at', sa.DateTime(timezone=True),
                                      nullable=True))


def downgrade() -> None:
    op.drop_column('player', 'forget_asked_at')
    op.drop_column('outboundmessage', 'raw_sha256')
    op.drop_column('outboundmessage', 'raw_size')
    op.drop_column('outboundmessage', 'pruned_at')
    op.drop_column('inboundmessage', 'raw_size')
    op.drop_column('inboundmessage', 'pruned_at')
