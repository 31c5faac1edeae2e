"""a seat's address bouncing (from delivery status reports); an index for the reply limits

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bounced_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('bounce_reason', sa.Text(), nullable=False,
                                      server_default=''))
    op.create_index('ix_outboundmessage_kind_created', 'outboundmessage', ['kind', 'created'])


def downgrade() -> None:
    op.drop_index('ix_outboundmessage_kind_created', table_name='outboundmessage')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('bounce_reason')
        batch_op.drop_column('bounced_at')
