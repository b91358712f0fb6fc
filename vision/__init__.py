"""The camera side of Spinner, one package per stage (each evaluated alone):

- `vision.read`: a photo in, every face-up tile out (detector, box refiner, half classifier);
- `vision.rebuild`: the layout (line, spinner, arms, open ends) rebuilt from one photo's tiles;
- `vision.follow`: a game followed frame by frame, each change turned into a play or a question;
- `vision.synth`: synthetic photographs and game films, the training and evaluation data;
- `vision.train`: training and export of the reader's models (the training extra);
- `vision.evaluate`: how well each stage does, on held-out synthetic data and the real photos;
- `vision.commands`: `spinner read|eval|train|export|watch|watch-eval`.

Box geometry shared by every stage lives in `vision.geometry`.
"""
