"""Index tournament tables by their match: every match's board asks whether it is one

Revision ID: 0004
Revises: 0003

"""
from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_tournament_tables_game_id', 'tournament_tables', ['game_id'], unique=False)


def downgrade():
    op.drop_index('ix_tournament_tables_game_id', table_name='tournament_tables')
