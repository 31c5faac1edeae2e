"""no secret at rest: digest and verdict of inbound mail, outbound mail's redacted copy

Revision ID: 0005
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('raw_sha256', sa.String(), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('secret_seat', sa.Integer(), nullable=True))
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.add_column(sa.Column('raw_once_sent', sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('outboundmessage', schema=None) as batch_op:
        batch_op.drop_column('raw_once_sent')
    with op.batch_alter_table('inboundmessage', schema=None) as batch_op:
        batch_op.drop_column('secret_seat')
        batch_op.drop_column('raw_sha256')
