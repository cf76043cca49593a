print("maskd: not yet")
