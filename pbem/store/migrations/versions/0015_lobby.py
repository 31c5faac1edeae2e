"""the lobby: tables opened by mail, their seats (confirmed by a code), invitations, and the
addresses that said "never"

Revision ID: 0015
Revises: 0012
"""
import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'lobbytable',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tag', sa.String(), nullable=False),
        sa.Column('game_type', sa.String(), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('options_json', sa.Text(), nullable=False),
        sa.Column('opener', sa.String(), nullable=False),
        sa.Column('language', sa.String(), nullable=False),
        sa.Column('status', sa.String(), nullable=False),
        sa.Column('created', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tag'),
    )
    with op.batch_alter_table('lobbytable', schema=None) as batch_op:
        batch_op.create_index('ix_lobbytable_opener', ['opener'], unique=False)
        batch_op.create_index('ix_lobbytable_status', ['status'], unique=False)
        batch_op.create_index('ix_lobbytable_created', ['created'], unique=False)
    op.create_table(
        'lobbyseat',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('address', sa.String(), nullable=False),
        sa.Column('name', sa.String(), nullable=False),
        sa.Column('language', sa.String(), nullable=False),
        sa.Column('code_salt', sa.String(), nullable=False),
        sa.Column('code_hash', sa.String(), nullable=False),
        sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['lobbytable.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('table_id', 'address'),
    )
    with op.batch_alter_table('lobbyseat', schema=None) as batch_op:
        batch_op.create_index('ix_lobbyseat_table_id', ['table_id'], unique=False)
        batch_op.create_index('ix_lobbyseat_address', ['address'], unique=False)
    op.create_table(
        'lobbyinvite',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('inviter', sa.String(), nullable=False),
        sa.Column('address_hash', sa.String(), nullable=False),
        sa.Column('created', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['lobbytable.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('table_id', 'address_hash'),
    )
    with op.batch_alter_table('lobbyinvite', schema=None) as batch_op:
        batch_op.create_index('ix_lobbyinvite_table_id', ['table_id'], unique=False)
        batch_op.create_index('ix_lobbyinvite_inviter', ['inviter'], unique=False)
        batch_op.create_index('ix_lobbyinvite_created', ['created'], unique=False)
    op.create_table(
        'nevermail',
        sa.Column('address_hash', sa.String(), nullable=False),
        sa.Column('created', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('address_hash'),
    )


def downgrade() -> None:
    op.drop_table('nevermail')
    op.drop_table('lobbyinvite')
    op.drop_table('lobbyseat')
    op.drop_table('lobbytable')
