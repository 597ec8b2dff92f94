</main>
</body>
</html>