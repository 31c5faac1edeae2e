"""Alembic environment: run programmatically by pbem.store.migrate."""

import warnings

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.exc import SAWarning
from sqlmodel import SQLModel

import pbem.store.tables  # noqa: F401  (registers the tables on the metadata)

# SQLite batch operations reflect the tables a foreign key points at, and SQLAlchemy cannot
# reflect the expression index on lower(game.tag). Nothing is lost by that: no batch operation
# rebuilds the game table (tests/store/test_schema_quiet.py checks the index is there after
# every migration), so the warning would only alarm an operator running `pbem init`.
warnings.filterwarnings("ignore", message="Skipped unsupported reflection of expression-based "
                        "index", category=SAWarning)

given = context.config.attributes.get("connection")  # one holding the migration lock
if given is not None:
    context.configure(connection=given, target_metadata=SQLModel.metadata,
                      render_as_batch=given.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
else:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url is not None
    connectable = create_engine(url)
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=SQLModel.metadata,
                          render_as_batch=connection.dialect.name == "sqlite")
        with context.begin_transaction():
            context.run_migrations()
    connectable.dispose()
