// FlipbookTimeline
