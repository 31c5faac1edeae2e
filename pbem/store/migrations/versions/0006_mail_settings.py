"""each seat's mail setting (every | turn | digest) and its last digest

Revision ID: 0006
Revises: 0005
"""
import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('mail_mode', sa.String(), nullable=False,
                                      server_default='every'))
        batch_op.add_column(sa.Column('digest_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('digest_at')
        batch_op.drop_column('mail_mode')
