// Flipbook
