"""Keep a hand's fields that GAME_RECORD.md does not name (another tool's), as the match's own

Revision ID: 0006
Revises: 0005

"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hands') as batch:
        batch.add_column(sa.Column('extra', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('hands') as batch:
        batch.drop_column('extra')
