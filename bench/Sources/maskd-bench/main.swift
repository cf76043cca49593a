print("maskd-bench: not yet")
