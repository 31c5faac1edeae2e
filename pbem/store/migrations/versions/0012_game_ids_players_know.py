"""game ids players know: each stored game's type renamed to its game's new id

Revision ID: 0012
Revises: 0011
"""
import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

# Frozen here, not read from the games: what this migration does must never change. Tags
# (e.g. "reef-1") stay as they are: they identify their game whatever its type is called.
RENAMED = {
    'reef': 'reef-encounter',
    'reef2018': 'reef-2018',
    'riff': 'das-riff',
}

_GAME = sa.table('game', sa.column('game_type', sa.String()))


def _rename(pairs: dict[str, str]) -> None:
    for old, new in pairs.items():
        op.execute(_GAME.update().where(_GAME.c.game_type == old).values(game_type=new))


def upgrade() -> None:
    _rename(RENAMED)


def downgrade() -> None:
    _rename({new: old for old, new in RENAMED.items()})
