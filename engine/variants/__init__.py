"""Games with a shape of their own (UNO Rommy, Bottle UNO); importing this registers them."""
