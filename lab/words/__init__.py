"""The words the app and the report say: escaping of user strings, takeaways, glossary, each family's sentences. No Streamlit."""
