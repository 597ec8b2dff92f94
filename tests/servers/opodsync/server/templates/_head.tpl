<!DOCTYPE html>
<html lang="en">
<head>
	<meta charset="utf-8" />
	<meta name="viewport" content="width=device-width, initial-scale=1.0, target-densitydpi=device-dpi" />
	<link rel="stylesheet" type="text/css" href="style.css?2025" />
	<title>{$title}</title>
	<link rel="icon" href="icon.svg" />
</head>

<body>
<h1>{$title} <img src="icon.svg" alt="" /></h1>
<main>
