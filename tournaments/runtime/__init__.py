"""What runs around the requests: background jobs and their queue, the public pages'
cache, the garbage collector's settings, and the spreadsheet export helpers."""
