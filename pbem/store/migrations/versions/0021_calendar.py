"""calendar: a player's "calendar off", and the deadline event each seat's calendar holds

Revision ID: 0021_calendar
Revises: 0020_watchers
"""
import sqlalchemy as sa
from alembic import op

revision = '0021_calendar'
down_revision = '0020_watchers'
branch_labels = None
depends_on = None

# Plain ADD/DROP COLUMN (as 0019): the seats' columns are nullable or default to 0 (no event
# sent yet), every existing player keeps the calendar on.


def upgrade() -> None:
    op.add_column('player', sa.Column('calendar_off', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    op.add_column('seat', sa.Column('calendar_uid', sa.String(), nullable=True))
    op.add_column('seat', sa.Column('calendar_sequence', sa.Integer(), nullable=False,
                                    server_default='0'))
    op.add_column('seat', sa.Column('calendar_due', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column('seat', 'calendar_due')
    op.drop_column('seat', 'calendar_sequence')
    op.drop_column('seat', 'calendar_uid')
    op.drop_column('player', 'calendar_off')
