"""A simulated Discord client around the Activity's page, on 127.0.0.1: the page in an iframe with
the query Discord gives it, and a parent frame that speaks the Embedded App SDK's protocol
(``frame.js``); ``server`` serves both from one origin, which the SDK accepts messages from."""
