"""The library database: connection, migrations, and one module per aggregate."""
