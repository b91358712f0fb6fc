"""Frames: the photos the camera and the players sent, with what the reader made of them

Revision ID: 0002
Revises: 0001

"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('frames',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('hand', sa.Integer(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=True),
    sa.Column('event', sa.Integer(), nullable=True),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('path', sa.String(length=200), nullable=False),
    sa.Column('width', sa.Integer(), nullable=False),
    sa.Column('height', sa.Integer(), nullable=False),
    sa.Column('reading', sa.JSON(), nullable=True),
    sa.Column('proposal', sa.JSON(), nullable=True),
    sa.Column('who', sa.String(length=60), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('frames', schema=None) as batch_op:
        batch_op.create_index('ix_frames_game', ['game_id', 'hand', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('frames', schema=None) as batch_op:
        batch_op.drop_index('ix_frames_game')
    op.drop_table('frames')
