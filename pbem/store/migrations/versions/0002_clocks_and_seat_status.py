"""clocks, vacations and seat status

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deadline_hours', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('reminder_hours', sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column('timeout_policy', sa.String(), nullable=False, server_default='pause'))
        batch_op.add_column(
            sa.Column('vacation_days', sa.Integer(), nullable=False, server_default='14'))
        batch_op.add_column(
            sa.Column('turn_started_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('reminded_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('status', sa.String(), nullable=False, server_default='active'))
        batch_op.add_column(
            sa.Column('vacation_until', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column('vacation_days_used', sa.Integer(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('vacation_days_used')
        batch_op.drop_column('vacation_until')
        batch_op.drop_column('status')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('reminded_at')
        batch_op.drop_column('turn_started_at')
        batch_op.drop_column('vacation_days')
        batch_op.drop_column('timeout_policy')
        batch_op.drop_column('reminder_hours')
        batch_op.drop_column('deadline_hours')
