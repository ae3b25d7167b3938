"""The playground driven from outside: its simulated world in this process (``world``), its own
process started as a person starts it (``process``), its page played as a person plays it
(``page``), and a tournament in its world (``tournament``)."""
