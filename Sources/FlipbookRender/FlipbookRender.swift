// FlipbookRender
