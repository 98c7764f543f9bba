from doctree.console import main

main()
