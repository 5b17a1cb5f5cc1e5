raise RuntimeError("this file does not load")
