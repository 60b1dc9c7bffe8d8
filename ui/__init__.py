"""User interfaces: the ``skattisch`` command line, the Kivy table UI, the laptop dashboard."""
