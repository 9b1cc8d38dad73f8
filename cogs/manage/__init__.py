"""What hosts, channel managers and players do about a game besides playing it: the ⚙️ menu and
the settings (settings_menu.py), handing a seat over (handover.py), away mode (away_menu.py)."""
