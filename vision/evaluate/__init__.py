"""How well each stage does: photos (`photos`, `ddd_board`), layouts (`layout`) and followed
games (`games`), each against its truth."""
