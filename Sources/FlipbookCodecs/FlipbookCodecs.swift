// FlipbookCodecs
