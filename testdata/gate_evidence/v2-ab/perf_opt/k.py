def main(x):
    return x  # tuned kernel (fixture)
