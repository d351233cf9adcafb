"""bianpai.templates"""
