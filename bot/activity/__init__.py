"""The Discord Activity: the game in a page that Discord shows in its own frame.

``page`` holds the built page (``static/``, made from ``activity/`` at the repository's root by
``npm run build`` there) and fills in what the page needs from the server that serves it.
"""
