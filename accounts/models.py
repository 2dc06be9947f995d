# Accounts use django.contrib.auth's User; profile data lives with the apps that own it.
