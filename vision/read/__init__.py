"""Reading a photo: the detector, the box refiner, the half classifier and the set settling
what they say into `Reading`s (plain dataclasses, `vision.read.reading`)."""
