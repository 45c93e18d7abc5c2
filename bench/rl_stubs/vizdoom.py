"""A seeded stand-in for ViZDoom's Python API (bench/example_runs.py --set rlgluon; vizdoom is not installed here).

Only what MHaneferd/mxnet.gluon's scripts call: a game whose screen is seeded random gray pixels, whose episodes last
5 actions, and whose reward is the index of the button pressed minus 1. Both sides of a run see the same game."""
import numpy as np


class _Enum:
    def __init__(self, *names):
        for n in names:
            setattr(self, n, n)


Mode = _Enum("PLAYER", "ASYNC_PLAYER", "SPECTATOR")
ScreenFormat = _Enum("GRAY8", "RGB24", "CRCGCB")
ScreenResolution = _Enum("RES_640X480", "RES_160X120")


class GameState:
    def __init__(self, screen):
        self.screen_buffer = screen


class DoomGame:
    EPISODE = 5

    def __init__(self):
        self._rng, self._steps, self._total, self._action = np.random.default_rng(0), 0, 0.0, None

    def __getattr__(self, name):  # load_config, set_window_visible, set_mode, set_screen_*, init, close
        if name.startswith(("set_", "load_", "init", "close")):
            return lambda *args, **kwargs: None
        raise AttributeError(name)

    def get_available_buttons_size(self):
        return 3

    def new_episode(self):
        self._steps, self._total = 0, 0.0

    def is_episode_finished(self):
        return self._steps >= self.EPISODE

    def get_state(self):
        return GameState(self._rng.integers(0, 256, (120, 160), dtype=np.uint8))

    def make_action(self, action, repeat=1):
        self._steps += 1
        reward = float(int(np.argmax(action)) - 1)
        self._total += reward
        return reward

    def set_action(self, action):
        self._action = action

    def advance_action(self, *args):
        self.make_action(self._action)

    def get_total_reward(self):
        return self._total
