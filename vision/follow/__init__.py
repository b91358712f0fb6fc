"""Following a game: frames in (`sources`), stillness and change (`motion`), the follower that
turns a changed table into a play or a question (`follower`), who laid a tile from the arm that
laid it (`seats`), and the frames kept as evidence."""
