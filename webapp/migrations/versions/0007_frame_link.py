"""A frame's link to the event it made: what became of that event (corrected, taken back)

Revision ID: 0007
Revises: 0006

"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('frames') as batch:
        batch.add_column(sa.Column('link', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('frames') as batch:
        batch.drop_column('link')
