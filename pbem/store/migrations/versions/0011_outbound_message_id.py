"""each outbound mail's Message-ID, indexed: a delivery report must name a mail we sent

Anyone can send a delivery status report; one that marks a seat bouncing must name, in its
original-message part, the Message-ID of a mail we sent to that seat's address. Mails queued
before this revision have none: a report about them marks nothing (it is only logged).

Revision ID: 0011
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('message_id', sa.String(), nullable=True))
        batch_op.create_index('ix_outboundmessage_message_id', ['message_id'])


def downgrade() -> None:
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.drop_index('ix_outboundmessage_message_id')
        batch_op.drop_column('message_id')
