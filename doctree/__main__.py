from doctree.cli import main

main()
