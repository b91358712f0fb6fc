"""Read jobs: the durable queue of photos waiting for the reader workers (SPINNER_READERS=queue)

Revision ID: 0005
Revises: 0004

"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('read_jobs',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('frame_id', sa.Integer(), nullable=True),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=True),
    sa.Column('spec', sa.JSON(), nullable=False),
    sa.Column('worker', sa.BigInteger(), nullable=True),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('read_jobs', schema=None) as batch_op:
        batch_op.create_index('ix_read_jobs_state', ['state', 'id'], unique=False)
        batch_op.create_index('ix_read_jobs_game', ['game_id', 'state'], unique=False)


def downgrade():
    with op.batch_alter_table('read_jobs', schema=None) as batch_op:
        batch_op.drop_index('ix_read_jobs_game')
        batch_op.drop_index('ix_read_jobs_state')
    op.drop_table('read_jobs')
